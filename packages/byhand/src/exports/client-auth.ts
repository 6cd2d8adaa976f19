// byhand/client/auth is @byhand/client/auth, re-exported so the one package keeps its public names.
export * from '@byhand/client/auth';
