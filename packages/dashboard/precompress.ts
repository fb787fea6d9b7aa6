// A Vite plugin: a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, at their
// best levels, which the server sends to browsers that accept them (src/web/dashboard-files.ts). Done at
// build and not when the server starts: brotli's best level takes a second or two over the whole build,
// too slow for every start (and every test app); a build compresses once, and the server only reads.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(js|css|html|svg|json|txt)$/;
/** Below this the saving is a few hundred bytes at most, less than the headers of a second representation. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  return {
    name: 'tolem-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const name of Object.keys(bundle)) {
        if (!TEXT.test(name)) continue;
        const file = path.join(dir, name);
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        const br = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
        // A copy no smaller than the file would only cost bytes: the server then sends the file itself.
        if (br.length < body.length) writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
