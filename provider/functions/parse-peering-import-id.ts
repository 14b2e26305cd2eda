// provider::tsdb::parse_peering_import_id: the two internal ids of a peering import id (the
// declared pattern has already refused anything but `<digits>,<digits>`).
import type { FunctionImplementation } from "../framework/types.js";

export const parsePeeringImportId: FunctionImplementation = ([importId]) => {
  const [peering, vpc] = String(importId).split(",");
  return { peering_connection_id: Number(peering), platform_vpc_id: Number(vpc) };
};
