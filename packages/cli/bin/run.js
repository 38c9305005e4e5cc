#!/usr/bin/env node
// Entry point of the `aitrail` bin: oclif reads package.json and loads the explicit command map.
import { execute } from '@oclif/core';

process.env.OCLIF_SKIP_NEW_VERSION_CHECK ??= 'true';
await execute({ dir: import.meta.url });
