// byhand/client is @byhand/client, re-exported so the one package keeps its public names.
export * from '@byhand/client';
