// `node --import ./test/support/record-imports.mjs …`: appends every module URL the process resolves to the file
// named by $BYHAND_IMPORT_LOG, so a test can say what a command did not load.
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url);
