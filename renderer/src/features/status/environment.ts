/** A profile's environment in words (the status bar, the window title, Settings). */
export const ENVIRONMENT_LABEL = { sandbox: 'Sandbox', nonprod: 'Non-production', prod: 'Production' } as const;
