// byhand/bridge/node is @byhand/bridge/node, re-exported so the one package keeps its public names.
export * from '@byhand/bridge/node';
