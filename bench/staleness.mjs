#!/usr/bin/env node
// Alias of bench/stale.mjs (the staleness benchmark), kept so both names work.
await import('./stale.mjs');
