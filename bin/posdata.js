#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built from src/ by `npm run build`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2));
