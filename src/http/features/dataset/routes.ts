/**
 * GET /v1/dataset: the whole dataset (or one level) as a file, JSON (default), CSV or GeoJSON (centroids), with the
 * dataset version in the file name and the body, the licence and attribution, a strong ETag, Content-Disposition,
 * and gzip or brotli chosen by Accept-Encoding. Each file is built and compressed once, on its first request; one
 * download is one request against the key's quota (the gate in front of every data route counts it).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DOWNLOAD_FORMATS, type DownloadFormat, downloadFile } from '../../../gazetteer/downloads.js';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import { boundaryFeature } from '../../../geo/boundaries.js';
import type { Geography } from '../../../geo/geography.js';
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

const FileBody = Type.String({ description: 'The file.' });

/** Downloads are the same for a dataset version: clients may keep them a day, then revalidate with If-None-Match. */
const CACHE_CONTROL = 'private, max-age=86400';

export async function datasetRoutes(app: FastifyInstance, { gazetteer, geo }: { gazetteer: Gazetteer; geo?: Geography }): Promise<void> {
  /** Boundaries as stored (no simplification), where the geography knows the unit. */
  const geometry = geo ? {
    geometryOf: (unit: { code: string; level: Level }) => {
      if (unit.level === 'village') return null;
      const feature = boundaryFeature(geo, gazetteer, unit.code, 0, 0);
      return feature && { geometry: feature.geometry, properties: { approximate: feature.properties.approximate, split_from: feature.properties.split_from } };
    },
    boundaryAttribution: geo.attribution,
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
            'application/json': { schema: { ...FileBody, description: 'format=json' } },
            'text/csv': { schema: { ...FileBody, description: 'format=csv' } },
            'application/geo+json': { schema: { ...FileBody, description: 'format=geojson' } },
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
    const { filename, contentType } = fileOf(format, level);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    reply.header('vary', 'Accept-Encoding').header('cache-control', CACHE_CONTROL).header('etag', etagOf(file, encoding));
    if (matchesFile(request.headers['if-none-match'], file)) return reply.code(304).send(null);
    reply.header('content-disposition', `attachment; filename="${filename}"`).type(contentType);
    if (encoding === 'identity') reply.header('content-length', String(file.length));
    else reply.header('content-encoding', encoding);
    return reply.send(bodyOf(file, encoding) as never);
  });
}
