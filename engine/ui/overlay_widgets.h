#pragma once
// Small ImGui helpers the overlay's sections share: table rows of counts, greyed text, plots, and widgets
// that record where they were drawn (OverlayLayout::controls) while drawOverlay has a layout open.
#include <string>

#include "engine/ui/frame_stats.h"

namespace engine::ui::widgets {

// Rows of a 3-column counts table: label, value ("-" without counts), share of `instances` (0: none).
void countRow(const char* label, bool valid, uint64_t value, uint64_t instances);
void instanceRow(const char* label, bool valid, uint64_t value, uint64_t instances);  // share of all instances
void plainRow(const char* label, bool valid, uint64_t value);                         // no share column
// The same row greyed, with "-": a row kept in place while it does not apply.
void greyRow(const char* label);

void disabledWrapped(const char* text);
void plot(const char* id, const RollingSeries& s, float height);

UiRect lastItemRect(const std::string& name);
UiRect windowRect(const char* name);

// Where the widgets below record their rectangles (null: nowhere); drawOverlay sets it for its frame.
void recordControlsInto(OverlayLayout* layout);
// ImGui's widgets, recorded under `name` (the label when null). A widget's ID is its label within the
// current ID scope: sections push their own.
bool checkbox(const char* label, bool* value, const char* name = nullptr);
bool radio(const char* label, int* value, int option, const char* name = nullptr);
bool button(const char* label, const char* name = nullptr);
void recordLast(const char* name);    // any other item, just drawn
void recordWindow(const char* name);  // the current window

}  // namespace engine::ui::widgets
