import { readFileSync } from 'node:fs';
import { LOGSERVICE_FILE_ENV } from '@logsvc/api';
import { ConfigError, loadConfigReport, maskSecretsInYaml, renderConfigYaml } from '@logsvc/config';
import type { LogsvcServer, StartupFiles } from './app';
import { TargetError } from './targets';

/**
 * `node dist/main.js [-config.file=x.yaml] [-target=all] [...Loki flags]`: loads the config,
 * runs the selected components, and on SIGTERM/SIGINT stops them (Stopping → Terminated) and
 * exits 0. With `-verify-config` it only loads and validates the config: `config is valid`
 * and exit 0, or the problems and exit 1.
 */
async function main(argv: readonly string[]): Promise<number> {
  // Signal handlers come first: a SIGTERM while the config loads or the modules are built must
  // also end in a clean exit 0, not Node's default death by signal.
  let received: 'SIGTERM' | 'SIGINT' | undefined;
  let onSignal: ((signal: 'SIGTERM' | 'SIGINT') => void) | undefined;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      received ??= signal;
      onSignal?.(signal);
    });
  }

  let server: LogsvcServer;
  let gracefulShutdownMs: number;
  try {
    const startupFiles: StartupFiles = {
      logServiceFile: process.env[LOGSERVICE_FILE_ENV] || undefined,
    };
    const { config, warnings, args } = loadConfigReport(argv, {
      // Kept as read, for the admin UI's LogService view (the operator's rendered file).
      readFile: (path) => {
        const text = readFileSync(path, 'utf8');
        startupFiles.configFile = { path, text };
        return text;
      },
    });
    if (args.verifyConfig) {
      for (const w of warnings) {
        process.stderr.write(`warning: ${w.key}: has no effect in logsvc: ${w.reason}\n`);
      }
      process.stderr.write('config is valid\n');
      return 0;
    }
    if (args.printConfigStderr) {
      const text = maskSecretsInYaml(renderConfigYaml(config)).trimEnd();
      // `-log-config-reverse-order`: last line first, for log viewers that show newest first.
      const lines = args.logConfigReverseOrder ? text.split('\n').reverse() : [text];
      process.stderr.write(`${lines.join('\n')}\n`);
    }
    gracefulShutdownMs = config.server.graceful_shutdown_timeout;
    // Loaded only now, so that `-verify-config` and config errors answer without loading the
    // server's modules (seconds on a small machine).
    const { checkTlsFiles } = await import('./rpc-client-options.js');
    checkTlsFiles(config);
    const { createServer } = await import('./app.js');
    server = await createServer(config, { startupFiles });
    for (const w of warnings) {
      server.logger.warn({ key: w.key, reason: w.reason }, 'config key has no effect in logsvc');
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof TargetError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const { logger } = server;

  let stopping: Promise<number> | undefined;
  const shutdown = (reason: string, code: number): Promise<number> => {
    stopping ??= (async () => {
      logger.info({ reason }, 'shutting down');
      const timer = setTimeout(() => {
        logger.error({ timeout_ms: gracefulShutdownMs }, 'graceful shutdown timed out');
        process.exit(1);
      }, gracefulShutdownMs || 30_000);
      timer.unref();
      await server.stop();
      clearTimeout(timer);
      logger.info('stopped');
      return code;
    })();
    return stopping;
  };

  if (received !== undefined) return shutdown(received, 0);
  const done = new Promise<number>((resolve) => {
    onSignal = (signal) => void shutdown(signal, 0).then(resolve);
    server.registry.onFailure((err) => {
      logger.error({ err }, 'a service failed; shutting down');
      void shutdown('service failure', 1).then(resolve);
    });
  });

  try {
    await server.start();
  } catch (err) {
    logger.error({ err }, 'start-up failed');
    return shutdown('start-up failure', 1);
  }
  return done;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
