/**
 * The body of `POST /bulkImportJobs` (compatibility.md "Bulk import") as one schema: what
 * existing clients send (`hasHeader` as a boolean or "True", `columnDelimiter` "csv" in any case,
 * `staticValue` as a number, nulls as absent, unknown keys). Code on top (import/job-request.ts)
 * checks the URL against the allowed hosts, the delimiter, the single action, the mapping types
 * and their fields.
 *
 * Property order is the order issues are reported in.
 */
import { Bool, Int, Objects, Scalar, Text, Obj, objectOf, withRequiredHint } from './kit.js';

/** What to send when `file` is missing (the schema) or null (the code on top). */
export const FILE_HINT = 'Send an object with sourceUrl, columnDelimiter, hasHeader and columns.';
/** What to send when `actions` is missing or null. */
export const ACTIONS_HINT = 'Send one action: {"actionType":"loadMappedFile","resourceType":"Contacts","mappingTypes":[{"name":"CreateOrUpdateContact"}]}.';

/** Largest `resultFileSizeKbLimit` (KB). */
export const MAX_RESULT_KB = 100_000;

const named = (description: string) => Objects({ name: Text(200, 'A column name. Required.') }, ['name'], description, 'an object with a name');

/** The bulk import job request schema. */
export const BulkImportJobRequest = objectOf(
  {
    description: Text(1000, 'Free text, shown with the job.'),
    file: withRequiredHint(
      Obj(
        {
          fileName: Text(255, 'The file name, kept as sent.'),
          hasHeader: Bool('The first line names the columns (default true; "True" accepted).'),
          hasQuotes: Bool('Fields may be quoted (default true; "True" accepted).'),
          sourceUrl: Text(2000, 'http(s) URL of the file (or a zip holding one): an upload of POST /bulkImportFiles, or a host the operator allows. Required.'),
          columnDelimiter: Text(10, 'Csv (default), Tab or Pipe, any case; or the character itself.'),
          columns: named('The columns, in order (at most 50); required without a header line.'),
        },
        ['sourceUrl'],
        'The delimited file. Required.',
        'an object',
      ),
      FILE_HINT,
    ),
    actions: withRequiredHint(
      Objects(
        {
          resultFileSizeKbLimit: Int(1, MAX_RESULT_KB, 'Largest result file part, KB (default 5000).'),
          resourceType: Text(100, 'Contacts (default) or ContactsActivistCodes (GET /bulkImportJobs/resources).'),
          actionType: Text(50, 'loadMappedFile, any case.'),
          mappingTypes: Objects(
            {
              name: Text(100, 'A mapping type of GET /bulkImportMappingTypes, any case. Required.'),
              fieldValueMappings: Objects(
                {
                  fieldName: Text(100, 'A field of the mapping type. Required.'),
                  columnName: Text(200, 'The column that fills it (not with staticValue); by default the column named like the field or one of its aliases.'),
                  staticValue: Scalar(1000, 'A value for every row (not with columnName).'),
                  values: Objects(
                    {
                      sourceValue: Text(200, 'A value in the file (compared trimmed, any case). Required.'),
                      targetValue: Text(200, 'Its value for the field. Required.'),
                    },
                    ['sourceValue', 'targetValue'],
                    'Value translations.',
                    'an object with sourceValue and targetValue',
                  ),
                },
                ['fieldName'],
                'How fields are filled.',
                'an object with a fieldName',
              ),
            },
            ['name'],
            'The mapping types applied to each row (CreateOrUpdateContact first). At least one.',
            'an object with a name',
          ),
          columnsToIncludeInResultsFile: named('Columns copied into the result file.'),
        },
        [],
        'Exactly one action. Required.',
        'an object',
      ),
      ACTIONS_HINT,
    ),
  },
  ['file', 'actions'],
  { description: 'A bulk import job request.' },
);
