#!/usr/bin/env node
'use strict'
// `tape FILE…`: loads each test file (the shell expands globs), as tape's CLI does.
const path = require('node:path')
for (const f of process.argv.slice(2)) require(path.resolve(f))
