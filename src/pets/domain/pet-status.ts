/** Sale status of a pet, mirrored by its inventory entry. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export const DEFAULT_PET_STATUS: PetStatus = 'available';
