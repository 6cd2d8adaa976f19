#!/usr/bin/env node
// The bundle of dist/cli.js (bundle-bin.mjs): a few files to load, not one per module.
import { main } from '../dist/bin/cli.js';

// `byhand checkpoint | head` closes the pipe early: that is the reader being done, not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv.slice(2));
