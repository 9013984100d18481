/** What other features use of the consent list: links into a filtered view, built from the same view the list reads. */
export { consentsLink, filterOf, type ConsentView } from './view.js';
