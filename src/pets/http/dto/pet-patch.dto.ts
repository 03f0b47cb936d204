import { ApiSchema, PartialType } from '@nestjs/swagger';
import { NewPetDto } from './new-pet.dto.js';

/** PATCH body: any subset of NewPet's fields; present fields are validated as in NewPet. */
@ApiSchema({ name: 'PetPatch', description: 'Any subset of the fields of NewPet' })
export class PetPatchDto extends PartialType(NewPetDto) {}
