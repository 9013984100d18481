import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { preloadScreen } from './app/screen-code.js';

// The page's entry, small so it runs as soon as it arrives: the first screen's code starts loading
// at once, beside the shell's (app/start.tsx: the connection, the settings read, the first render),
// rather than once the shell has been loaded and run (issue 21: the first screen's scripts came last).
preloadScreen(window.location.hash);
await import('./app/start.js');
