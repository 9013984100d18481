/** What other features use of the consent actions (their dialogs); the rest is internal. */
export { AuthorizeDialog } from './AuthorizeDialog.js';
export { BulkRevokeDialog } from './BulkRevokeDialog.js';
export { CreateConsentDialog } from './CreateConsentDialog.js';
export { RevokeDialog } from './RevokeDialog.js';
export { UpdateDialog } from './UpdateDialog.js';
