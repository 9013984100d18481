/** What other features use of the products feature: the terms components and the record source view. */
export { ProductTerms, FeeList, RateList, ShapeBadge, Notes, durationText, money, percent, type Note } from './terms.js';
export { RecordSource } from './RecordSource.js';
