/**
 * JSON text the way Loki's encoders write it: Go's `encoding/json` with its HTML-safe escaping
 * (implemented once, in @logsvc/gocompat).
 */
export { jsonMarshal as goJson, jsonMarshalString as goJsonString } from '@logsvc/gocompat';

export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';
