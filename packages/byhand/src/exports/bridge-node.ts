// byhand/bridge/node is @byhand/switchboard/node, re-exported so the one package keeps its public names.
export * from '@byhand/switchboard/node';
