// A Vite build plugin that records, for every file the renderer build writes, which source modules
// put code into it: `npm run sbom` reads the record to know which npm packages ship inside the UI.
// A JS module counts when rolldown rendered some of its code (a barrel file of re-exports renders
// nothing); a CSS module counts for the chunk's CSS file (its JS stub renders nothing, its rules
// go to the CSS asset); an asset (font, image) counts by its original file.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { isCSSRequest, type Plugin, rolldownVersion, version } from 'vite';

/** The record's shape; paths are relative to the repository's root, virtual module ids kept as they are. */
export interface ShippedModules {
  bundler: string;
  outputs: Record<string, { bytes: number; modules: string[] }>;
}

export function shippedModules(root: string, recordFile: string): Plugin {
  // A module id is a path, maybe with a query or a plugin's \0 prefix (kept for virtual modules).
  const rel = (id: string) => {
    const path = id.replace(/^\0/, '').replace(/\?.*$/, '');
    return isAbsolute(path) ? relative(root, path).replaceAll('\\', '/') : id;
  };
  return {
    name: 'cdr:shipped-modules',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? dirname(options.file ?? '');
      const modules = new Map<string, Set<string>>();
      const add = (fileName: string, id: string) => {
        const set = modules.get(fileName) ?? new Set<string>();
        set.add(rel(id));
        modules.set(fileName, set);
      };
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') {
          const css = [...(output.viteMetadata?.importedCss ?? [])];
          for (const [id, info] of Object.entries(output.modules)) {
            if (isCSSRequest(id)) for (const file of css) add(file, id);
            else if (info.renderedLength > 0) add(output.fileName, id);
          }
          modules.set(output.fileName, modules.get(output.fileName) ?? new Set());
        } else {
          for (const original of output.originalFileNames) if (isAbsolute(original)) add(output.fileName, original);
        }
      }
      const record: ShippedModules = { bundler: `vite ${version} (rolldown ${rolldownVersion})`, outputs: {} };
      for (const fileName of Object.keys(bundle).sort()) {
        if (fileName.endsWith('.map')) continue;
        const file = join(outDir, fileName);
        record.outputs[rel(file)] = { bytes: statSync(file).size, modules: [...(modules.get(fileName) ?? [])].sort() };
      }
      mkdirSync(dirname(recordFile), { recursive: true });
      writeFileSync(recordFile, JSON.stringify(record, null, 1));
    },
  };
}
