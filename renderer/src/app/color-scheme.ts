import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import type { ConsoleClient } from '../bridge/client.js';

/**
 * The theme (light, dark, or following the OS) is remembered by main in the user's settings, not
 * in the browser's storage: the browser host's origin changes with its port, so localStorage would
 * forget it. The first value comes from the settings read before the first render.
 */
export function settingsColorSchemeManager(client: ConsoleClient, initial: MantineColorScheme): MantineColorSchemeManager {
  let current = initial;
  return {
    get: () => current,
    set: (value) => {
      current = value;
      void client.settingsSet({ theme: value }).catch(() => undefined);
    },
    subscribe: () => undefined,
    unsubscribe: () => undefined,
    clear: () => undefined,
  };
}
