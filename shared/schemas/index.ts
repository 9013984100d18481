/** Every resource of the Consent API and the Data API, tolerant by design; see define.ts and parse.ts. */
export { consentApi } from './consent.js';
export { dataApi } from './data-api.js';
export { parseTolerant, type ParseResult, type UnknownValue } from './parse.js';
export * as bankingProduct from './banking-product.js';
