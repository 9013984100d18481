// The one function of js-yaml the tests use (the package ships no types; @types/js-yaml is not needed for this).
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
