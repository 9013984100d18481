/**
 * Typed failures of calls to the intermediary. Each carries the endpoint and the request id (when
 * the server sent one) so support can quote them; none carries a token or a secret.
 */
export type ApiErrorKind =
  'Unauthorized' | 'Forbidden' | 'NotFound' | 'Unprocessable' | 'RateLimited' | 'Server' | 'Network' | 'Schema' | 'Http';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly endpoint: string;
  readonly requestId: string | undefined;
  /** For Schema errors: the path of the failing field. */
  readonly path: string | undefined;
  /** For Unprocessable (422) and 400 responses: the CDS error list's details. */
  readonly details: string[];
  /** For a change whose answer was lost and whose state could not be re-read: it may or may not have happened. */
  readonly outcomeUnknown: boolean;
  constructor(
    kind: ApiErrorKind,
    message: string,
    opts: {
      endpoint: string;
      status?: number;
      requestId?: string;
      cause?: unknown;
      path?: string;
      details?: string[];
      outcomeUnknown?: boolean;
    },
  ) {
    super(message, { cause: opts.cause });
    this.name = `${kind}Error`;
    this.kind = kind;
    this.status = opts.status;
    this.endpoint = opts.endpoint;
    this.requestId = opts.requestId;
    this.path = opts.path;
    this.details = opts.details ?? [];
    this.outcomeUnknown = opts.outcomeUnknown ?? false;
  }
}

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 404) return 'NotFound';
  if (status === 422) return 'Unprocessable';
  if (status === 429) return 'RateLimited';
  if (status >= 500) return 'Server';
  return 'Http';
}

/** Builds the error for a non-2xx response, quoting the CDS error list (every entry kept in `details`). */
export async function errorFromResponse(response: Response, endpoint: string, requestId?: string): Promise<ApiError> {
  const id = response.headers.get('x-fapi-interaction-id') ?? response.headers.get('x-request-id') ?? requestId;
  let detail = '';
  const details: string[] = [];
  try {
    const text = await response.text();
    const body = JSON.parse(text) as {
      errors?: { title?: string; detail?: string }[];
      error?: string;
      error_description?: string;
      consentId?: unknown;
      status?: unknown;
    };
    for (const e of body.errors ?? []) details.push([e.title, e.detail].filter(Boolean).join(': '));
    if (details.length) detail = details[0]!;
    else if (body.error) detail = [body.error, body.error_description].filter(Boolean).join(': ');
    // POST /consents answers 422 with the consent that already exists (the published document's shape).
    else if (typeof body.consentId === 'string')
      details.push((detail = `an ${String(body.status ?? '')} consent already exists: ${body.consentId}`));
  } catch {
    // No body, or not JSON: the status says enough.
  }
  const kind = kindForStatus(response.status);
  const message = `${endpoint} answered ${response.status}${detail ? ` (${detail})` : ''}`;
  return new ApiError(kind, message, { endpoint, status: response.status, details, ...(id ? { requestId: id } : {}) });
}

export function networkError(endpoint: string, cause: unknown): ApiError {
  const reason = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
  return new ApiError('Network', `${endpoint} could not be reached: ${reason}`, { endpoint, cause });
}
