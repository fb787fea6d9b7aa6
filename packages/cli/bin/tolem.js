#!/usr/bin/env node
// The tolem command. A file of its own, in the repository, so that npm links the bin at install time,
// before the prepare step has built dist/ (a bin pointing into dist/ was not linked in a fresh clone).
import '../dist/main.js';
