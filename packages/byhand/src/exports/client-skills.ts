// byhand/client/skills is @byhand/client/skills, re-exported so the one package keeps its public names.
export * from '@byhand/client/skills';
