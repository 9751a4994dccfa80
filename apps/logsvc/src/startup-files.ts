/** The files a process was started from, for the admin UI. */
export interface StartupFiles {
  /** The `-config.file` it loaded, as read (before `${VAR}` expansion). */
  configFile?: { path: string; text: string };
  /**
   * The LogService it was rendered from, when the logsvc operator started it in Kubernetes
   * (`LOGSVC_LOGSERVICE_FILE`).
   */
  logServiceFile?: string;
}
