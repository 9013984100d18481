import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenIssuer } from './auth.js';
import type { DataHolder } from './data-holder.js';
import type { Faults } from './faults.js';
import type { WebhookSender } from './webhooks.js';
import type { World } from './world.js';

/** What every sandbox route handler can reach. */
export interface SandboxContext {
  url: string;
  world: World;
  issuer: TokenIssuer;
  dataHolder: DataHolder;
  webhooks: WebhookSender;
  faults: Faults;
  client: { clientId: string; clientSecret: string };
  webhookTarget: string | undefined;
  /** Data holders (by index) that serve Data API 1.x shapes. */
  legacyHolders: number;
}

export interface Route {
  method: string;
  pattern: RegExp;
  /** The scope the access token needs; null for unauthenticated paths (token, JWKS, data holder). */
  scope: string | null;
  handler: (req: IncomingMessage, res: ServerResponse, params: string[], url: URL, ctx: SandboxContext) => Promise<void> | void;
}
