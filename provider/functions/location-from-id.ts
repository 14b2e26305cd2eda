// provider::containerbackup::location_from_id: the location of a restore channel id (restore-channel-id.ts).
import { FunctionError, type FunctionImplementation } from "../framework/types.js";
import { restoreChannelIdParts } from "./restore-channel-id.js";

export const locationFromId: FunctionImplementation = ([id]) => {
  const location = restoreChannelIdParts(String(id)).location;
  if (location === undefined) throw new FunctionError(`${JSON.stringify(id)} has no location`, 0);
  return location;
};
