/**
 * The browser's part of `/healthz`, from what the renderer knows (whether it is connected,
 * what it has open) and, for a remote browser it is not connected to, whether the endpoint
 * accepts a connection. Also asked before the renderer is loaded (compose.ts): no
 * playwright-core here.
 */
import { endpointKind, type DeclaredEndpointKind } from '../core/browser-endpoint.js';
import type { BrowserStatus } from '../core/ports/render-port.js';
import { endpointAnswers } from './endpoint-answers.js';

export interface OpenBrowser {
  connected: boolean;
  contexts: number;
  pages: number;
}

const NONE_OPEN: OpenBrowser = { connected: false, contexts: 0, pages: 0 };

export async function browserStatus(
  remote: { endpoint: string; kind: DeclaredEndpointKind } | undefined,
  open: OpenBrowser = NONE_OPEN,
  timeoutMs: number,
): Promise<BrowserStatus> {
  if (remote === undefined) return { kind: 'local', ...open };
  return {
    kind: 'remote',
    protocol: endpointKind(remote.endpoint, remote.kind),
    ...open,
    reachable: open.connected || (await endpointAnswers(remote.endpoint, timeoutMs)),
  };
}
