/** The inventory module's public entry: all that other modules and the composition root may import from it. */
export { type InventoryItem, STOCK_REPOSITORY, type StockRepository } from './domain/stock.repository.js';
export { cancelOrder, completeOrder, placeOrder, type StockLine } from './domain/stock-line.js';
export { InsufficientStockError, PetNotAvailableError } from './domain/stock.errors.js';
export { type StockChanged, stockLineEvents } from './domain/stock.events.js';
export { InventoryItemDto, InventoryUpdateDto } from './http/dto/inventory-item.dto.js';
export { InventoryService } from './application/inventory.service.js';
export { INVENTORY_ENTITIES, InventoryModule } from './inventory.module.js';
