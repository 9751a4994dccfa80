import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_CHANGES_ANNOTATION } from '@logsvc/operator-api';
import { certificateFits, selfSignedCertificate } from './certificates';
import type { ReviewOutcome } from './review';
import { WEBHOOK_PATH, WebhookServer } from './server';

const certificate = selfSignedCertificate(['127.0.0.1', 'op.logsvc-system.svc']);

/** POSTs to the webhook, trusting only its CA (as the API server does with the caBundle). */
function post(port: number, body: string, path = WEBHOOK_PATH) {
  return new Promise<{
    status: number;
    body: { response: { allowed: boolean; status: { message: string } } };
  }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        ca: certificate.caCert,
        headers: { 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const s3 = { type: 's3', s3: { bucket: 'logs', secret: { name: 'logs-s3' } } };
const review = (operation: string, spec: unknown, oldSpec?: unknown, annotations = {}) =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u-1',
      operation,
      namespace: 'team-a',
      name: 'logs',
      object: { metadata: { name: 'logs', annotations }, spec },
      ...(oldSpec !== undefined ? { oldObject: { metadata: { uid: 'ls-1' }, spec: oldSpec } } : {}),
    },
  });

describe('the admission webhook over HTTPS', () => {
  const seen: ReviewOutcome[] = [];
  const sut = new WebhookServer({
    ...certificate,
    host: '127.0.0.1',
    port: 0,
    onReview: (o) => seen.push(o),
  });
  beforeAll(() => sut.start());
  afterAll(() => sut.stop());

  it('serves a certificate for its host names, signed by the CA it hands out', () => {
    expect(certificateFits(certificate.cert, ['127.0.0.1', 'op.logsvc-system.svc'])).toBe(true);
    expect(certificateFits(certificate.cert, ['other.svc'])).toBe(false);
    // Expiring within the margin: replaced.
    const later = new Date(Date.now() + 360 * 24 * 3600 * 1000);
    expect(certificateFits(certificate.cert, ['127.0.0.1'], later)).toBe(false);
  });

  it('refuses a mode change with a 422 naming the field, and admits it with the annotation', async () => {
    const before = { version: '1', mode: 'Microservices', storage: s3 };
    const after = { ...before, mode: 'SingleBinary' };
    const refused = await post(sut.port, review('UPDATE', after, before));
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: false, status: { code: 422, reason: 'Invalid' } },
    });
    expect(refused.body.response.status.message).toContain(
      'spec.mode: changing it from "Microservices" to "SingleBinary" is refused',
    );
    expect(seen.at(-1)).toMatchObject({ request: { operation: 'UPDATE', name: 'logs' } });

    const allowed = await post(
      sut.port,
      review('UPDATE', after, before, { [ALLOW_CHANGES_ANNOTATION]: 'spec.mode' }),
    );
    expect(allowed.body.response).toEqual({ uid: 'u-1', allowed: true });
  });

  it('refuses on create what breaks a rule across fields, and allows deletes', async () => {
    const created = await post(sut.port, review('CREATE', { version: '1', mode: 'Microservices' }));
    expect(created.body.response.allowed).toBe(false);
    expect(created.body.response.status.message).toContain('spec.storage.sharedClaimName');
    const deleted = await post(sut.port, review('DELETE', undefined));
    expect(deleted.body.response.allowed).toBe(true);
  });

  it('answers 400 to what is not an AdmissionReview and 404 elsewhere', async () => {
    expect((await post(sut.port, '{"kind":"Pod"}')).status).toBe(400);
    expect((await post(sut.port, 'not json')).status).toBe(400);
    expect((await post(sut.port, '{}', '/mutate')).status).toBe(404);
  });
});
