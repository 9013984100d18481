// The two formats of ajv-formats-draft2019 the SBOM test uses (the package ships no types): JSON
// Schema draft 2019's iri-reference and idn-email, which ajv-formats lacks and CycloneDX's schema
// uses. Imported one by one: the package's index also loads its idn-hostname format, which requires
// Node's deprecated `punycode` module (a warning on Node 22).
declare module 'ajv-formats-draft2019/formats/iri-reference.js' {
  export default function validate(value: string): boolean;
}
declare module 'ajv-formats-draft2019/formats/idn-email.js' {
  export default function validate(value: string): boolean;
}
