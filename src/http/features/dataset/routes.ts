/**
 * GET /v1/dataset: the whole dataset (or one level) as a file, JSON (default), CSV or GeoJSON (centroids), with the
 * dataset version in the file name and the body, the licence and attribution, a strong ETag, Content-Disposition,
 * and gzip or brotli chosen by Accept-Encoding. Each file is built and compressed once, on its first request; one
 * download is one request against the key's quota (the gate in front of every data route counts it).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '../../schemas/type.js';
import { DOWNLOAD_CONTENT_TYPES, DOWNLOAD_FORMATS, type DownloadFormat, downloadFile, downloadFilename } from '../../../gazetteer/downloads.js';
import { EXPORT_COLUMNS } from '../../../gazetteer/export.js';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import { boundaryFeature } from '../../../geo/boundaries.js';
import type { Geography } from '../../../geo/geography.js';
import type { Locator } from '../../../geo/locations.js';
import { LEVELS, type Level } from '../../../gazetteer/types.js';
import { TAGS } from '../../plugins/openapi.js';
import { bodyOf, chooseEncoding, etagOf, matchesFile, PreparedFiles } from '../../precompressed.js';
import { errorResponses, NotModified, V1Error } from '../../schemas/common.js';

export const DatasetQuery = Type.Object({
  format: Type.Optional(Type.Enum(DOWNLOAD_FORMATS, { default: 'json',
    description: '`json` (default): `{ dataset, version, level, count, licence, attribution, columns, units: [...] }`, one unit per line; '
      + '`csv`: RFC 4180 with a header row, the dataset version in a last column `dataset_version`; '
      + '`geojson`: a FeatureCollection: provinces, districts and communes as MultiPolygon boundaries (CC BY 4.0, attribution in the file), '
      + 'villages as Points at their centroids.' })),
  level: Type.Optional(Type.Enum(LEVELS, { description: 'Only this level; all four levels (25 + 210 + 1,652 + 14,578 units) when absent.' })),
}, { additionalProperties: false });

const FileMeta = {
  dataset: Type.Literal('kh-address'),
  version: Type.String({ description: 'The dataset version (also in the file name).' }),
  level: Type.Enum([...LEVELS, 'all'], { description: 'The level the file holds, or all.' }),
  count: Type.Integer({ minimum: 0, description: 'How many units the file holds.' }),
  licence: Type.String(),
  attribution: Type.String({ description: 'Cite this when you use the data.' }),
};
const ExportRecord = Type.Object(Object.fromEntries(EXPORT_COLUMNS.map((column) => [column, Type.Union([Type.String(), Type.Number(), Type.Null()])])),
  { description: 'A unit: the columns of the CLI export.' });
const DatasetJson = Type.Object({ ...FileMeta, columns: Type.Array(Type.String()), units: Type.Array(ExportRecord) },
  { description: 'format=json: the units, one per line, with the version, licence and attribution.' });
const DatasetGeoJson = Type.Object({
  type: Type.Literal('FeatureCollection'), ...FileMeta, geometry_note: Type.String(),
  features: Type.Array(Type.Object({ type: Type.Literal('Feature'), id: Type.String(), geometry: Type.Union([Type.Object({}), Type.Null()]), properties: Type.Object({}) })),
}, { description: 'format=geojson: boundaries (MultiPolygon) of provinces, districts and communes, villages as Points.' });
const DatasetCsv = Type.String({ description: 'format=csv: RFC 4180 with a header row; the last column is dataset_version.' });

/** Downloads are the same for a dataset version: clients may keep them a day, then revalidate with If-None-Match. */
const CACHE_CONTROL = 'private, max-age=86400';

export async function datasetRoutes(app: FastifyInstance, { gazetteer, geo, locate }: { gazetteer: Gazetteer; geo?: Geography; locate?: Locator }): Promise<void> {
  /** Boundaries as stored (no simplification), where the geography knows the unit. */
  const geometry = geo ? {
    geometryOf: (unit: { code: string; level: Level }) => {
      if (unit.level === 'village') return null;
      const feature = boundaryFeature(geo, gazetteer, unit.code, 0, 0);
      return feature && { geometry: feature.geometry, properties: { approximate: feature.properties.approximate, split_from: feature.properties.split_from } };
    },
    boundaryAttribution: geo.attribution,
    // lat/lng and boxes: a point inside each province, district and commune (src/geo/locations.ts).
    locate,
  } : {};
  const fileOf = (format: DownloadFormat, level: Level | undefined) => downloadFile(gazetteer, format, level, geometry);
  const files = new PreparedFiles<`${DownloadFormat}|${Level | 'all'}`>((key) => {
    const [format, level] = key.split('|') as [DownloadFormat, Level | 'all'];
    return fileOf(format, level === 'all' ? undefined : level).chunks;
  });

  app.withTypeProvider<TypeBoxTypeProvider>().get('/v1/dataset', {
    schema: {
      operationId: 'v1Dataset',
      tags: [TAGS.v1],
      summary: 'Download the dataset: JSON, CSV or GeoJSON, all levels or one (gzip or brotli by Accept-Encoding)',
      description: `The file name in \`Content-Disposition\` carries the dataset version (e.g. \`kh-address-${gazetteer.version}-villages.csv\`). `
        + 'Send `Accept-Encoding: br` or `gzip` to receive it compressed (about 8 times smaller). The strong `ETag` names the content in '
        + 'each encoding; `If-None-Match` with any of them answers 304. One download counts as one request.',
      querystring: DatasetQuery,
      response: {
        200: {
          description: 'The file, as an attachment.',
          content: {
            'application/json': { schema: DatasetJson },
            'text/csv': { schema: DatasetCsv },
            'application/geo+json': { schema: DatasetGeoJson },
          },
        },
        304: NotModified,
        ...errorResponses(V1Error),
      },
    },
  }, async (request, reply) => {
    const format = request.query.format ?? 'json';
    const level = request.query.level;
    const file = await files.get(`${format}|${level ?? 'all'}`);
    // Not fileOf(): that selects the level's units (about 40 µs), which only the first request, preparing the file, needs.
    const filename = downloadFilename(gazetteer.version, format, level);
    const contentType = DOWNLOAD_CONTENT_TYPES[format];
    if (geo) reply.header('x-attribution', geo.attribution);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    reply.header('vary', 'Accept-Encoding').header('cache-control', CACHE_CONTROL).header('etag', etagOf(file, encoding));
    if (matchesFile(request.headers['if-none-match'], file)) return reply.code(304).send(null);
    reply.header('content-disposition', `attachment; filename="${filename}"`).type(contentType);
    if (encoding === 'identity') reply.header('content-length', String(file.length));
    else reply.header('content-encoding', encoding);
    return reply.send(bodyOf(file, encoding) as never);
  });
}
