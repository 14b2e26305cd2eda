// The parts of a restore channel id in any accepted format, the way Google's *_from_id functions
// read resource ids: a full id or self link (`…projects/{project}/locations/{location}/…/{name}`,
// with anything such as `https://host/v1/` before it) yields the segment after `projects/`, the
// segment after `locations/` and the last segment; the import formats `{project}/{location}/{name}`
// and `{location}/{name}` yield their parts. The declared patterns (schemas/provider.containerbackup)
// have already refused an id without the part asked for.

export interface RestoreChannelIdParts {
  project?: string;
  location?: string;
  name: string;
}

const PROJECT = /(?:^|\/)projects\/([^/]+)\//;
const LOCATION = /(?:^|\/)locations\/([^/]+)\//;

export function restoreChannelIdParts(id: string): RestoreChannelIdParts {
  const segments = id.split("/");
  const name = segments[segments.length - 1]!;
  const project = PROJECT.exec(id)?.[1];
  if (project !== undefined) return { project, location: LOCATION.exec(id)?.[1], name };
  if (segments.length === 3) return { project: segments[0], location: segments[1], name };
  return { location: segments[0], name };
}
