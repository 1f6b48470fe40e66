// @norm NORM-LOGGING-001

export interface LogFields {
  correlationId: string;
  [key: string]: string | number | boolean | undefined;
}

/** One JSON object per event, written to stdout where the platform collects it. */
export const logger = {
  info(event: string, fields: LogFields): void {
    process.stdout.write(JSON.stringify({ level: 'info', event, ...fields }) + '\n');
  },
  error(event: string, err: { code?: string; message: string }, fields: LogFields): void {
    process.stdout.write(JSON.stringify({ level: 'error', event, code: err.code, message: err.message, ...fields }) + '\n');
  },
};
