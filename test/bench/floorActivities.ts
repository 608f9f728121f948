/** The floor workflows' one step: no work, so what remains is Temporal's own cost. */
export const floorActivities = {
  async floorStep(): Promise<void> {},
};
export type FloorActivities = typeof floorActivities;
