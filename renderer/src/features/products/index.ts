/** What other features use of the products feature: the terms components and the record source view. */
export { ProductTerms, FeeList, RateList, ShapeBadge, Notes, type Note } from './terms.js';
export { durationText, money, percent } from './terms-text.js';
export { RecordSource } from './RecordSource.js';
