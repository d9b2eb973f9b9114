/**
 * The body of `POST /bulkImportJobs` (compatibility.md "Bulk import") as one schema: what
 * existing clients send (`hasHeader` as a boolean or "True", `columnDelimiter` "csv" in any case,
 * `staticValue` as a number). Code on top (import/job-request.ts) checks the URL against the
 * allowed hosts, the mapping types and their fields.
 */
import { Type } from '@sinclair/typebox';
import { Bool, Int, List, Obj, Text, objectOf } from './kit.js';

const named = (description: string) => List({ name: Text(200, 'A column name.') }, ['name'], description, 'an object with a name');

/** The bulk import job request schema. */
export const BulkImportJobRequest = objectOf({
  description: Text(1000, 'Free text.'),
  file: Obj({
    fileName: Text(255, 'The file name, kept as sent.'),
    hasHeader: Bool('The first line names the columns ("True" accepted).'),
    hasQuotes: Bool('Fields may be quoted ("True" accepted).'),
    sourceUrl: Text(2000, 'http(s) URL of the file (or a zip holding one): an upload of POST /bulkImportFiles, or a host the operator allows.'),
    columnDelimiter: Text(10, 'Csv, Tab or Pipe, any case.'),
    columns: named('The columns, in order; required without a header line.'),
  }, [], 'The delimited file. Required.', 'an object'),
  actions: Type.Union([Type.Array(objectOf({
    resultFileSizeKbLimit: Int(1, 100_000, 'Largest result file part, KB.'),
    resourceType: Text(100, 'Contacts or ContactsActivistCodes (GET /bulkImportJobs/resources).'),
    actionType: Text(50, 'loadMappedFile.'),
    mappingTypes: List({
      name: Text(100, 'A mapping type of GET /bulkImportMappingTypes.'),
      fieldValueMappings: List({
        fieldName: Text(100, 'A field of the mapping type.'),
        columnName: Text(200, 'The column that fills it.'),
        staticValue: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], { description: 'A value for every row.' }),
        values: List({ sourceValue: Text(200, 'A value in the file.'), targetValue: Text(200, 'Its value for the field.') }, [], 'Value translations.', 'an object'),
      }, [], 'How fields are filled.', 'an object'),
    }, [], 'The mapping types applied to each row, in order.', 'an object with a name'),
    columnsToIncludeInResultsFile: named('Columns copied into the result file.'),
  })), Type.Null()], { description: 'Exactly one action.' }),
}, ['file', 'actions'], { description: 'A bulk import job request.' });
