// byhand/bridge is @byhand/switchboard, re-exported so the one package keeps its public names.
export * from '@byhand/switchboard';
