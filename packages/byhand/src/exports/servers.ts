// byhand/servers is @byhand/servers, re-exported so the one package keeps its public names.
export * from '@byhand/servers';
