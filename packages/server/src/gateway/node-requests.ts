import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTP_CODE } from '@conclave/protocol';
import { CloudApi } from '../cloud-api/cloud-api.js';
import { CloudApiError } from '../cloud-api/cloud-api-error.js';
import { LOCAL_HEADER } from '../cluster/admin-forward.js';
import { expectBody, sendJson } from '../http/respond.js';
import type { GatewayDeps } from './gateway-deps.js';

/**
 * A request another node of the cluster sent (LOCAL_HEADER) must carry that node's signature with the cluster
 * secret over its method, path, body, client address and time (cluster/node-signature.ts); its body is checked
 * as it is read. Undefined when it was refused (answered here: the cloud API's shape for `/`, else 403
 * NODE_SIGNATURE_INVALID); else the client the sending node named, if any.
 */
export function nodeRequestChecked(ctx: GatewayDeps, req: IncomingMessage, res: ServerResponse, url: URL, cloudApi: CloudApi): { client?: string } | undefined {
  const header = req.headers[LOCAL_HEADER];
  if (!ctx.cluster || header === undefined) return {};
  const check = ctx.cluster.checkNodeRequest(req.method ?? 'GET', `${url.pathname}${url.search}`, typeof header === 'string' ? header : undefined);
  if (check.ok) {
    expectBody(req, check.bodySha256);
    return check.client === undefined ? {} : { client: check.client };
  }
  ctx.logger.warn({ address: req.socket.remoteAddress, path: url.pathname, reason: check.reason }, 'cluster: node-to-node request refused');
  ctx.metrics.error('http', HTTP_CODE.NODE_SIGNATURE_INVALID);
  const message = `not a request of a node of this cluster (${check.reason})`;
  if (CloudApi.wants(req, url.pathname)) cloudApi.refuse(res, new CloudApiError('AuthFailure.SignatureFailure', message));
  else sendJson(res, 403, { code: HTTP_CODE.NODE_SIGNATURE_INVALID, message });
  return undefined;
}
