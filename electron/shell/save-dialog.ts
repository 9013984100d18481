import { dialog, type BrowserWindow } from 'electron';
import { rmSync } from 'node:fs';
import type { FileSink } from '../core/exports/files.js';

/** In the desktop app, an export goes where the user picks in the system's save dialog. */
export function saveDialogSink(getWindow: () => BrowserWindow | null): FileSink {
  return {
    async open(name) {
      const win = getWindow();
      const options = {
        defaultPath: name,
        showsTagField: false,
        properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
      };
      const choice = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      if (choice.canceled || !choice.filePath) return null;
      const path = choice.filePath;
      return { path, deliver: async () => ({ path }), discard: () => rmSync(path, { force: true }) };
    },
  };
}
