#!/usr/bin/env node
import { run } from '../lib/launch.mjs';
run('caveman-shrink');
