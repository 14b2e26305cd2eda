// provider::containerbackup::project_from_id: the project of a restore channel id (restore-channel-id.ts).
import { FunctionError, type FunctionImplementation } from "../framework/types.js";
import { restoreChannelIdParts } from "./restore-channel-id.js";

export const projectFromId: FunctionImplementation = ([id]) => {
  const project = restoreChannelIdParts(String(id)).project;
  if (project === undefined) throw new FunctionError(`${JSON.stringify(id)} has no project`, 0);
  return project;
};
