// byhand/host is @byhand/host, re-exported so the one package keeps its public names.
export * from '@byhand/host';
