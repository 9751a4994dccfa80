/** The levels `POST /log_level` accepts (as @logsvc/config's LOG_LEVELS). */
export const LOG_LEVELS_FOR_UI = ['debug', 'info', 'warn', 'error'] as const;
