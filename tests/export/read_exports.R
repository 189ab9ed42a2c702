# Reads CSV exports the way a statistician reads them in base R, and says what it read (for test_exports.py):
#   Rscript read_exports.R OUT FILE...
# For the i-th FILE it prints tab-separated lines "rows FILE N", "class FILE COLUMN CLASS" for each column and
# "times FILE COLUMN N" (how many values of a time column R parsed), and writes the data frame as read to OUT/i.csv.
arguments <- commandArgs(trailingOnly = TRUE)
out <- arguments[1]
files <- arguments[-1]

# read.csv infers every other column's type from its values; these columns' values may not show theirs. `value` is text
# (an answer or outcome as given: "Alex", "LA6568-5", "7"), which R reads as integers in an export whose answers are all
# numbers; a consent document's `version` "1.0" would become the number 1; `occurrence` (the event's index) is empty
# throughout for a task without events, such as onboarding, which R reads as logical.
known <- c(value = "character", version = "character", occurrence = "integer")

read_export <- function(path) {
  if (basename(path) == "data-dictionary.csv") {
    # A REDCap data dictionary is text throughout (its validation bounds too), under headers that are not R names.
    return(read.csv(path, colClasses = "character", na.strings = character(), check.names = FALSE, encoding = "UTF-8"))
  }
  header <- names(read.csv(path, nrows = 1, encoding = "UTF-8"))
  read.csv(path, stringsAsFactors = FALSE, na.strings = "", colClasses = known[names(known) %in% header],
           encoding = "UTF-8")
}

# ISO 8601 times with the participant's offset: R 4.2's %z reads "+1400" but not "+14:00", so the colon goes first.
parse_times <- function(text) {
  as.POSIXct(sub("([+-][0-9]{2}):([0-9]{2})$", "\\1\\2", text), format = "%Y-%m-%dT%H:%M:%OS%z", tz = "UTC")
}

for (i in seq_along(files)) {
  frame <- read_export(files[i])
  writeLines(paste("rows", files[i], nrow(frame), sep = "\t"))
  writeLines(paste("class", files[i], names(frame), vapply(frame, function(column) class(column)[1], ""), sep = "\t"))
  for (column in grep("_(at|start)$", names(frame), value = TRUE)) {
    writeLines(paste("times", files[i], column, sum(!is.na(parse_times(frame[[column]]))), sep = "\t"))
  }
  write.csv(frame, file.path(out, paste0(i, ".csv")), row.names = FALSE, na = "", fileEncoding = "UTF-8")
}
