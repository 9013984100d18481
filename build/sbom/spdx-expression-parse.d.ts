// The one function of spdx-expression-parse the SBOM uses (the package ships no types).
declare module 'spdx-expression-parse' {
  export interface LicenseInfo {
    license: string;
    plus?: true;
    exception?: string;
  }
  export interface ConjunctionInfo {
    conjunction: 'and' | 'or';
    left: LicenseInfo | ConjunctionInfo;
    right: LicenseInfo | ConjunctionInfo;
  }
  /** @throws when the text is not a valid SPDX licence expression */
  export default function parse(text: string): LicenseInfo | ConjunctionInfo;
}
