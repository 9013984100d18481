import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// The machines running the suite are shared and busy: wait up to 5 s for what the UI shows.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs; happy-dom lacks matchMedia's listeners in some versions.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// happy-dom does no layout, so every box measures 0×0 and a virtualised list would show no rows.
// Give elements the size of a desktop window; real layout is covered by the e2e tests in Chromium.
const WINDOW_BOX = { x: 0, y: 0, top: 0, left: 0, right: 1400, bottom: 900, width: 1400, height: 900 };
Element.prototype.getBoundingClientRect = function () {
  return { ...WINDOW_BOX, toJSON: () => WINDOW_BOX } as DOMRect;
};
for (const prop of ['offsetHeight', 'clientHeight'] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => WINDOW_BOX.height });
}
for (const prop of ['offsetWidth', 'clientWidth'] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => WINDOW_BOX.width });
}
// happy-dom's ResizeObserver reports 0×0 boxes, which would overwrite the size above.
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// happy-dom has no FontFaceSet; Mantine's autosizing textarea listens to it for font loads.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener() {}, removeEventListener() {} } });
}
