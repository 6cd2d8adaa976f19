// byhand/bridge is @byhand/bridge, re-exported so the one package keeps its public names.
export * from '@byhand/bridge';
