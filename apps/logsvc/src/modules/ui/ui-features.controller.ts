import { access } from 'node:fs/promises';
import {
  CONFIG_FILE_PATH,
  TENANT_OVERRIDES_PATH,
  type TenantOverridesView,
  UI_FEATURES_PATH,
  UI_TENANTS_PATH,
  type UiFeatures,
} from '@logsvc/api';
import { type Config, EVERY_TENANT, type Overrides, maskSecretsInYaml } from '@logsvc/config';
import { Controller, Get, Header, Inject } from '@nestjs/common';
import {
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
  getAt,
  jsonAnswer,
  textAnswer,
} from '../../http/local-endpoints';
import { httpError } from '../../http/plain-error';
import type { StartupFiles } from '../../startup-files';
import type { Component } from '../../targets';
import type { IngesterClient } from '@logsvc/ingester';
import type { ChunkStore } from '@logsvc/storage';
import { COMPONENTS, CONFIG, INGESTER_CLIENT, OVERRIDES, STARTUP_FILES } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { RingsService } from '../cluster/rings.service';

/**
 * `GET /ui/api/features`: what the admin UI may ask this process (its ring pages, its
 * LogService view, its config file, the tenancy), so the UI asks nothing that answers 404; and
 * `GET /ui/api/config-file`: the config file it started with, as written; and
 * `GET /ui/api/overrides`: each tenant's limits that its runtime config changes; and
 * `GET /ui/api/tenants`: the tenants it knows, for the tenant picker.
 */
@LocalEndpoints()
@Controller()
export class UiFeaturesController implements LocalEndpointSource {
  constructor(
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(STARTUP_FILES) private readonly files: StartupFiles,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(CHUNK_STORE) private readonly store: ChunkStore,
    @Inject(INGESTER_CLIENT) private readonly ingesters: IngesterClient,
  ) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    return {
      ...getAt([UI_FEATURES_PATH], async () => jsonAnswer(await this.features())),
      ...getAt([CONFIG_FILE_PATH], () => textAnswer(this.configFile())),
    };
  }

  @Get(UI_FEATURES_PATH)
  async features(): Promise<UiFeatures> {
    // As the ring pages answer: every ring this process uses, the pattern ring's page only in
    // a pattern ingester.
    const rings = this.rings
      .names()
      .filter((r) => r !== 'pattern-ingester' || this.components.includes('pattern-ingester'));
    const path = this.files.logServiceFile;
    const logservice =
      path !== undefined &&
      (await access(path).then(
        () => true,
        () => false,
      ));
    return {
      rings,
      logservice,
      config_file: this.files.configFile !== undefined,
      deletes: this.components.includes('compactor') && this.config.compactor.retention_enabled,
      rules: this.components.includes('ruler'),
      queries: this.components.includes('querier') || this.components.includes('query-frontend'),
      auth_enabled: this.config.auth_enabled,
      multi_tenant_queries: this.config.querier.multi_tenant_queries_enabled,
    };
  }

  @Get(CONFIG_FILE_PATH)
  @Header('content-type', 'text/plain; charset=utf-8')
  configFile(): string {
    const file = this.files.configFile;
    if (!file) throw httpError(404, 'this process started without -config.file');
    return maskSecretsInYaml(file.text);
  }

  @Get(TENANT_OVERRIDES_PATH)
  tenantOverrides(): TenantOverridesView {
    const defaults = this.config.limits_config as unknown as Record<string, unknown>;
    return {
      runtime_config_file: this.config.runtime_config.file,
      tenants: this.overrides.tenants().map((tenant) => {
        const limits = this.overrides.forTenant(tenant) as unknown as Record<string, unknown>;
        const changes = Object.keys(limits)
          .filter((k) => JSON.stringify(limits[k]) !== JSON.stringify(defaults[k]))
          .sort()
          .map((setting) => ({ setting, default: defaults[setting], value: limits[setting] }));
        return { tenant, changes };
      }),
    };
  }

  @Get(UI_TENANTS_PATH)
  async tenants(): Promise<{ tenants: string[] }> {
    // Object storage, every ingester's memory (the ring's, as the label APIs ask them; this
    // process's own in the single binary) and the runtime config; a source that fails adds none.
    const none = (): string[] => [];
    const [stored, inMemory] = await Promise.all([
      this.store.maintenance.tenants().catch(none),
      this.ingesters.tenants().catch(none),
    ]);
    const known = new Set([
      ...stored,
      ...inMemory,
      // `*` holds the limits of every tenant: not a tenant to pick.
      ...this.overrides.tenants().filter((t) => t !== EVERY_TENANT),
    ]);
    return { tenants: [...known].sort() };
  }
}
