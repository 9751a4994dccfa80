// Word lists the line formats draw from. Weighted so the output looks like real traffic:
// mostly GETs and 2xx, a tail of errors, a few hot paths and many cold ones.

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export const HTTP_METHOD_WEIGHTS = [70, 18, 6, 3, 3];

export const STATUS_CODES = [200, 201, 204, 301, 304, 400, 401, 403, 404, 429, 500, 502, 503];
export const STATUS_WEIGHTS = [620, 60, 40, 10, 60, 30, 20, 10, 80, 10, 30, 15, 5];

export const PATH_TEMPLATES = [
  '/api/v1/users/{id}',
  '/api/v1/orders/{id}/items',
  '/api/v1/products?page={n}&size=50',
  '/api/v2/search?q={word}',
  '/static/js/app.{hex}.js',
  '/static/css/main.{hex}.css',
  '/healthz',
  '/metrics',
  '/login',
  '/checkout/{id}',
  '/images/{hex}.png',
  '/api/v1/sessions/{hex}',
];

export const USER_AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'curl/8.8.0',
  'Go-http-client/1.1',
  'kube-probe/1.30',
  'python-requests/2.32.3',
];

export const REFERERS = ['-', 'https://shop.example.com/', 'https://www.example.org/search', '-'];

export const WORDS = [
  'alpha',
  'bravo',
  'cart',
  'delta',
  'echo',
  'invoice',
  'kernel',
  'lambda',
  'metrics',
  'needle',
  'orders',
  'payment',
  'quota',
  'refund',
  'session',
  'token',
  'upload',
  'vector',
];

export const LOGGERS = ['http', 'db', 'cache', 'auth', 'worker', 'scheduler', 'grpc'];

export const MESSAGES: Record<string, readonly string[]> = {
  debug: ['cache lookup', 'query plan chosen', 'span started', 'retrying connection'],
  info: ['request completed', 'user logged in', 'order created', 'job finished', 'cache warmed'],
  warn: ['slow query', 'retry budget low', 'deprecated API used', 'connection pool saturated'],
  error: ['upstream timeout', 'payment declined', 'database unavailable', 'panic recovered'],
};

export const CALLERS = [
  'handler.go',
  'server.go',
  'store.go',
  'cache.go',
  'client.go',
  'worker.go',
  'auth.go',
];

export const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type Level = (typeof LEVELS)[number];
